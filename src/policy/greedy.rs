//! Greedy: a one-ply look-ahead on a weighted sum of the game's features, the cheapest policy
//! that plays with intent, and the rollout policy MCTS can use.
//!
//! Choosing among atomic actions one at a time is myopic when a choice takes two actions (a
//! mech's move, then its attack): a move scores nothing by itself. So an action that the game
//! marks [`PlanStep::Prefix(k)`](PlanStep::Prefix) is scored together with the best following
//! [`PlanStep::Finish(k)`](PlanStep::Finish) action of the same actor `k`, and a move+attack
//! pair is one choice.

use rand::{Rng, SeedableRng};

use crate::game::{Game, GameRng, Outcome, PlanStep, below};

use super::{LIST_ROOM, Policy};

/// Added to the weighted feature score of a won state and subtracted from that of a lost one,
/// so a win scores above every unfinished state and a loss below. Weighted sums are assumed to
/// stay well within `±1e8`.
pub const WIN_BONUS: f64 = 1e9;

/// The weighted feature score shared by greedy and MCTS: weights indexed like
/// [`Game::FEATURE_NAMES`] and a reusable feature buffer.
#[derive(Clone, Debug)]
pub(crate) struct Heuristic {
    weights: Vec<f64>,
    features: Vec<f64>,
    /// Bit `i`: weight `i` is not `0.0` (see [`Game::features_needed`]).
    needed: u64,
}

impl Heuristic {
    /// # Panics
    /// Panics when `weights.len() != G::FEATURE_NAMES.len()`.
    pub(crate) fn new<G: Game>(weights: Vec<f64>) -> Self {
        let n = G::FEATURE_NAMES.len();
        assert_eq!(
            weights.len(),
            n,
            "{} weights for the {n} features of game {}",
            weights.len(),
            G::NAME
        );
        // A weight of 0 adds `0 * f = 0` for every finite feature, so a feature it weighs
        // need not be computed: the sum is the same to the bit.
        let needed = weights
            .iter()
            .take(64)
            .enumerate()
            .filter(|&(_, &w)| w != 0.0)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        Heuristic {
            weights,
            features: vec![0.0; n],
            needed,
        }
    }

    /// The weighted sum of `state`'s features.
    #[inline]
    pub(crate) fn weighted<G: Game>(&mut self, state: &G) -> f64 {
        state.features_needed(self.needed, &mut self.features);
        self.weights
            .iter()
            .zip(&self.features)
            .map(|(w, f)| w * f)
            .sum()
    }

    /// The weighted sum plus [`WIN_BONUS`] for a won state, minus it for a lost one. `NaN`
    /// (a feature gone wrong) scores as minus infinity, so it is never preferred.
    #[inline]
    pub(crate) fn score<G: Game>(&mut self, state: &G) -> f64 {
        let w = self.weighted(state);
        let v = match state.outcome() {
            Some(Outcome::Won) => w + WIN_BONUS,
            Some(Outcome::Lost(_)) => w - WIN_BONUS,
            None => w,
        };
        if v.is_nan() { f64::NEG_INFINITY } else { v }
    }
}

/// One-ply look-ahead on a weighted feature score.
///
/// Each decision draws one seed from the policy stream; candidate `i` is then evaluated on
/// `samples` chance samples, sample `s` using a generator of the policy's own seeded from
/// `seed + s` (the same samples for every candidate: common random numbers). A sample's value
/// is the score ([`WIN_BONUS`] plus or minus the weighted features) of the state after the
/// candidate, or for a [`PlanStep::Prefix(k)`](PlanStep::Prefix) candidate the best score over
/// the following [`PlanStep::Finish(k)`](PlanStep::Finish) actions (the state after the prefix
/// itself when it has none or the game ended). The candidate's value is the mean over samples
/// (so, for a prefix, the mean of the best follow-up per sample). When the first sample used no
/// chance at all (the generator was not advanced) the value is exact and the other samples are
/// skipped. Ties among the best values are broken uniformly with the policy stream.
///
/// In a game with hidden information ([`Game::HIDDEN_INFORMATION`]: Beyond the Rift's decks,
/// the Gods' asset and wound decks)
/// each sample's copy of the state is first determinized with that sample's generator, so
/// greedy as a player never reads a deck's true order (the next Response card would tell it
/// whether an attack hits); every sample is then used. The determinization does not depend on
/// the candidate (same state, same generator), so it is done once per sample and decision and
/// every candidate of the sample starts from that copy and the generator as it left it. Inside
/// MCTS (`in_search`) the state is looked ahead on as it is handed over.
///
/// No allocation per decision once the follow-up and tie buffers have grown to the largest
/// legal-action count seen (they start with `LIST_ROOM`).
#[derive(Clone, Debug)]
pub struct GreedyPolicy<G: Game> {
    heuristic: Heuristic,
    samples: u32,
    follow: Vec<G::Action>,
    ties: Vec<u32>,
    /// The generators of this decision's samples, freshly seeded (`seed + s`), cloned for each
    /// candidate so that seeding happens once per decision, not once per candidate.
    seeded: Vec<GameRng>,
    /// When `honest`: per sample, the state determinized with that sample's generator and the
    /// generator as the determinization left it (filled once per decision by
    /// [`determinize_samples`](Self::determinize_samples)).
    determinized: Vec<(G, GameRng)>,
    /// Determinize each sample's copy before looking ahead ([`Game::HIDDEN_INFORMATION`]
    /// games, when greedy is the player): see the type's docs.
    honest: bool,
}

impl<G: Game> GreedyPolicy<G> {
    /// A greedy policy with `weights` indexed like [`Game::FEATURE_NAMES`] and `samples`
    /// chance samples per candidate.
    ///
    /// # Panics
    /// Panics when `weights.len() != G::FEATURE_NAMES.len()` or `samples == 0`.
    pub fn new(weights: Vec<f64>, samples: u32) -> Self {
        assert!(samples >= 1, "GreedyPolicy needs at least one sample");
        GreedyPolicy {
            heuristic: Heuristic::new::<G>(weights),
            samples,
            // Room for the widest legal-action lists seen (Beyond's attack plans with a full
            // hand: the follow-ups of a prefix), so a rollout that meets a new widest list
            // after warm-up does not allocate (tests/alloc.rs).
            follow: Vec::with_capacity(LIST_ROOM),
            ties: Vec::with_capacity(LIST_ROOM),
            seeded: Vec::with_capacity(samples.min(1024) as usize),
            determinized: Vec::with_capacity(if G::HIDDEN_INFORMATION {
                samples.min(1024) as usize
            } else {
                0
            }),
            honest: G::HIDDEN_INFORMATION,
        }
    }

    /// The same policy for use inside a search (MCTS's rollouts and child ranking): the state
    /// it is handed is already a determinization (honest search) or the truth on purpose
    /// (`see_hidden`), so it looks ahead on that state as it is.
    pub(crate) fn in_search(mut self) -> Self {
        self.honest = false;
        self
    }

    /// Seeds the generators of one decision's samples from `seed`.
    fn seed_samples(&mut self, seed: u64) {
        self.seeded.clear();
        self.seeded
            .extend((0..self.samples).map(|s| GameRng::seed_from_u64(seed.wrapping_add(s as u64))));
    }

    /// When `honest`: determinizes a copy of `state` with each sample's generator (seeded by
    /// [`seed_samples`](Self::seed_samples)), once per decision, for [`value`](Self::value).
    fn determinize_samples(&mut self, state: &G) {
        if !self.honest {
            return;
        }
        self.determinized.clear();
        for start in &self.seeded {
            let mut rng = start.clone();
            let mut copy = *state;
            copy.determinize(&mut rng);
            self.determinized.push((copy, rng));
        }
    }

    /// The value of playing `action` in `state` (see the type's docs), on the samples seeded
    /// by [`seed_samples`](Self::seed_samples) (when `honest`, on their determinized copies of
    /// `state` made by [`determinize_samples`](Self::determinize_samples)).
    fn value(&mut self, state: &G, action: G::Action) -> f64 {
        let step = state.plan_step(action);
        let mut total = 0.0;
        let samples = self.seeded.len();
        for s in 0..samples {
            let start = self.seeded[s].clone();
            // Two plain copies, not a cloned tuple: the tuple cost MCTS's greedy rollouts on
            // Beyond 11% more instructions (an extra copy of the state per candidate).
            let mut after;
            let mut rng;
            if self.honest {
                after = self.determinized[s].0;
                rng = self.determinized[s].1.clone();
            } else {
                after = *state;
                rng = start.clone();
            }
            after.apply(action, &mut rng);
            // A determinized copy may hold another order of a deck the action draws from: the
            // draw is chance even when the generator is not advanced.
            let mut chance = self.honest || rng != start;
            let v = match step {
                PlanStep::Prefix(k) if after.outcome().is_none() => {
                    after.legal_actions(&mut self.follow);
                    let mut best: Option<f64> = None;
                    for &f in &self.follow {
                        if after.plan_step(f) != PlanStep::Finish(k) {
                            continue;
                        }
                        let mut r = rng.clone();
                        let mut next = after;
                        next.apply(f, &mut r);
                        chance |= r != rng;
                        let v = self.heuristic.score(&next);
                        best = Some(best.map_or(v, |b| b.max(v)));
                    }
                    match best {
                        Some(v) => v,
                        None => self.heuristic.score(&after),
                    }
                }
                _ => self.heuristic.score(&after),
            };
            if s == 0 && !chance {
                return v;
            }
            total += v;
        }
        total / samples as f64
    }
}

impl<G: Game> GreedyPolicy<G> {
    /// Writes into `out` the value (see the type's docs) of every action of `legal` in
    /// `state`, in `legal`'s order, on the samples seeded from `seed`. MCTS orders its
    /// children by these values (progressive widening). No allocation once `out` and the
    /// policy's buffers have grown.
    pub(crate) fn values(&mut self, state: &G, legal: &[G::Action], seed: u64, out: &mut Vec<f64>) {
        self.seed_samples(seed);
        self.determinize_samples(state);
        out.clear();
        for &action in legal {
            let v = self.value(state, action);
            out.push(v);
        }
    }
}

impl<G: Game> Policy<G> for GreedyPolicy<G> {
    /// # Panics
    /// Panics when `legal` is empty.
    fn choose(&mut self, state: &G, legal: &[G::Action], rng: &mut GameRng) -> G::Action {
        assert!(!legal.is_empty(), "GreedyPolicy::choose: no legal action");
        if legal.len() == 1 {
            return legal[0];
        }
        self.seed_samples(rng.next_u64());
        self.pick(state, legal, rng)
    }
}

impl<G: Game> GreedyPolicy<G> {
    /// Chooses like [`Policy::choose`], but each candidate is looked ahead on one sample only:
    /// the dice `dice` deals (a clairvoyant search's copy of the game's true chance generator),
    /// so the look-ahead sees what would really happen. Ties are broken with `rng`, which is
    /// not otherwise drawn from. No allocation once the buffers have grown.
    ///
    /// # Panics
    /// Panics when `legal` is empty.
    pub(crate) fn choose_with_dice(
        &mut self,
        state: &G,
        legal: &[G::Action],
        rng: &mut GameRng,
        dice: &GameRng,
    ) -> G::Action {
        assert!(
            !legal.is_empty(),
            "GreedyPolicy::choose_with_dice: no legal action"
        );
        if legal.len() == 1 {
            return legal[0];
        }
        self.seeded.clear();
        self.seeded.push(dice.clone());
        self.pick(state, legal, rng)
    }

    /// The best of `legal` on the samples in `self.seeded`; ties broken uniformly with `rng`.
    fn pick(&mut self, state: &G, legal: &[G::Action], rng: &mut GameRng) -> G::Action {
        self.determinize_samples(state);
        let mut best = f64::NEG_INFINITY;
        self.ties.clear();
        for (i, &action) in legal.iter().enumerate() {
            let v = self.value(state, action);
            if v > best {
                best = v;
                self.ties.clear();
                self.ties.push(i as u32);
            } else if v == best {
                self.ties.push(i as u32);
            }
        }
        let pick = if self.ties.len() == 1 {
            0
        } else {
            below(rng, self.ties.len() as u32)
        };
        legal[self.ties[pick as usize] as usize]
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::fmt;

    use super::*;
    use crate::game::{Axis, PositionError, SetupError, SetupValues, Stream, Tracer, stream_rng};
    use crate::games::race::{Race, RaceAction};

    /// A fixture where one mech moves to square 0, 1 or 2 (or waits) and then attacks: moving
    /// to square 0 scores 1 at once, but the attack from square 2 deals 5, from square 1 deals
    /// 2, from square 0 deals 1. A myopic policy moves to 0; planning moves to 2.
    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    pub(crate) struct Duel {
        square: Option<u8>,
        score: u8,
        done: bool,
    }

    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    pub(crate) enum DuelAction {
        Move(u8),
        Attack,
        Wait,
    }

    impl fmt::Display for Duel {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{self:?}")
        }
    }

    impl Game for Duel {
        type Action = DuelAction;
        type Setup = ();
        const NAME: &'static str = "duel";
        const MAX_DECISIONS: u32 = 2;
        fn axes() -> &'static [Axis] {
            &[]
        }
        fn resolve_setup(_: &SetupValues) -> Result<(), SetupError> {
            Ok(())
        }
        fn axis_names(_: &(), _: &str) -> Vec<String> {
            Vec::new()
        }
        fn new_game(_: &(), _: &mut GameRng) -> Self {
            Duel {
                square: None,
                score: 0,
                done: false,
            }
        }
        fn legal_actions(&self, out: &mut Vec<DuelAction>) {
            out.clear();
            match (self.done, self.square) {
                (true, _) => {}
                (false, None) => {
                    out.extend([0, 1, 2].map(DuelAction::Move));
                    out.push(DuelAction::Wait);
                }
                (false, Some(_)) => out.push(DuelAction::Attack),
            }
        }
        fn apply_traced<T: Tracer>(&mut self, action: DuelAction, _: &mut GameRng, _: &mut T) {
            match action {
                DuelAction::Move(q) => {
                    self.square = Some(q);
                    self.score += u8::from(q == 0);
                }
                DuelAction::Attack => {
                    self.score += [1, 2, 5][self.square.unwrap() as usize];
                    self.done = true;
                }
                DuelAction::Wait => self.done = true,
            }
        }
        fn result_code(&self) -> u8 {
            if self.done { Outcome::Won.code() } else { 0 }
        }
        const LOSS_CAUSES: &'static [&'static str] = &[];
        const FEATURE_NAMES: &'static [&'static str] = &["score"];
        fn features(&self, out: &mut [f64]) {
            out[0] = self.score as f64;
        }
        const METRIC_NAMES: &'static [&'static str] = &[];
        fn metrics(&self, _: &mut [i64]) {}
        fn turns(&self) -> u32 {
            0
        }
        fn plan_step(&self, action: DuelAction) -> PlanStep {
            match action {
                DuelAction::Move(_) => PlanStep::Prefix(0),
                DuelAction::Attack => PlanStep::Finish(0),
                DuelAction::Wait => PlanStep::Single,
            }
        }
        fn action_text(&self, action: DuelAction) -> String {
            format!("{action:?}")
        }
        fn to_position(&self) -> String {
            String::new()
        }
        fn from_position(_: &str) -> Result<Self, PositionError> {
            Err(PositionError {
                line: 0,
                message: "fixture".into(),
            })
        }
    }

    #[test]
    fn greedy_scores_a_move_with_its_best_attack() {
        let state = Duel::new_game(&(), &mut stream_rng(0, 0, Stream::Setup));
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let mut greedy = GreedyPolicy::<Duel>::new(vec![1.0], 1);
        let mut rng = stream_rng(0, 0, Stream::Policy);
        for _ in 0..20 {
            assert_eq!(greedy.choose(&state, &legal, &mut rng), DuelAction::Move(2));
        }
        // The values: move 0 then attack = 2, move 1 + attack = 2, move 2 + attack = 5, wait = 0.
        greedy.seed_samples(0);
        assert_eq!(greedy.value(&state, DuelAction::Move(0)), 2.0 + WIN_BONUS);
        assert_eq!(greedy.value(&state, DuelAction::Move(2)), 5.0 + WIN_BONUS);
        assert_eq!(greedy.value(&state, DuelAction::Wait), WIN_BONUS);
    }

    #[test]
    fn greedy_takes_a_sure_win_and_avoids_a_sure_loss_on_race() {
        let mut greedy = GreedyPolicy::<Race>::new(vec![1.0, 0.0], 16);
        let legal = [RaceAction::Walk, RaceAction::Run];
        let mut rng = stream_rng(1, 0, Stream::Policy);
        for _ in 0..20 {
            // Square 9: walking wins for sure, running only on heads.
            let at_nine = Race {
                position: 9,
                turn: 2,
            };
            assert_eq!(greedy.choose(&at_nine, &legal, &mut rng), RaceAction::Walk);
            // Last turn on square 8: walking loses for sure, running wins on heads.
            let last = Race {
                position: 8,
                turn: 5,
            };
            assert_eq!(greedy.choose(&last, &legal, &mut rng), RaceAction::Run);
        }
        // Mid-race, running's expected +1.5 beats walking's +1.
        let mid = Race {
            position: 2,
            turn: 1,
        };
        let mean_run = (0..400)
            .map(|seed| {
                greedy.seed_samples(seed * 1000);
                greedy.value(&mid, RaceAction::Run)
            })
            .sum::<f64>()
            / 400.0;
        assert!((mean_run - 3.5).abs() < 0.05, "{mean_run}");
        greedy.seed_samples(7);
        assert_eq!(greedy.value(&mid, RaceAction::Walk), 3.0);
    }

    #[test]
    fn greedy_breaks_ties_uniformly() {
        // Zero weights: walk and run tie on every unfinished state.
        let mut greedy = GreedyPolicy::<Race>::new(vec![0.0, 0.0], 4);
        let legal = [RaceAction::Walk, RaceAction::Run];
        let state = Race {
            position: 0,
            turn: 0,
        };
        let mut rng = stream_rng(2, 0, Stream::Policy);
        let walks = (0..2000)
            .filter(|_| greedy.choose(&state, &legal, &mut rng) == RaceAction::Walk)
            .count();
        assert!((850..1150).contains(&walks), "{walks} walks of 2000");
    }

    /// The honest greedy determinizes each sample's copy once per decision and looks ahead on
    /// it for every candidate. Each candidate's value must equal the look-ahead from a copy
    /// determinized for that candidate alone (the code before the sharing): the mean over
    /// samples of a one-sample look-ahead on `state` determinized with generator `seed + s`,
    /// continuing with that generator. Checked to the bit on every decision of 6 Beyond games
    /// played at random (fails if the copies were determinized with another generator, shared
    /// across samples, or the generator restarted after the determinization).
    #[test]
    fn honest_values_equal_a_determinization_per_candidate() {
        use crate::games::beyond::Beyond;
        let setup = Beyond::resolve_setup(&SetupValues::new()).expect("default setup");
        let weights: Vec<f64> = (0..Beyond::FEATURE_NAMES.len())
            .map(|i| {
                if i % 2 == 0 {
                    1.0 + i as f64
                } else {
                    -0.5 * i as f64
                }
            })
            .collect();
        const SAMPLES: u64 = 3;
        let mut honest = GreedyPolicy::<Beyond>::new(weights.clone(), SAMPLES as u32);
        let mut one = GreedyPolicy::<Beyond>::new(weights, 1).in_search();
        let (mut legal, mut values) = (Vec::new(), Vec::new());
        let mut checked = 0;
        for game in 0..6 {
            let mut g = Beyond::new_game(&setup, &mut stream_rng(9, game, Stream::Setup));
            let mut chance = stream_rng(9, game, Stream::Chance);
            for decision in 0..60 {
                if g.outcome().is_some() {
                    break;
                }
                g.legal_actions(&mut legal);
                let seed = game * 1_000 + decision;
                honest.values(&g, &legal, seed, &mut values);
                for (i, &a) in legal.iter().enumerate() {
                    let mut total = 0.0;
                    for s in 0..SAMPLES {
                        let mut rng = GameRng::seed_from_u64(seed.wrapping_add(s));
                        let mut copy = g;
                        copy.determinize(&mut rng);
                        one.seeded.clear();
                        one.seeded.push(rng);
                        total += one.value(&copy, a);
                    }
                    let expected = total / SAMPLES as f64;
                    assert_eq!(values[i].to_bits(), expected.to_bits(), "{a:?}: {values:?}");
                    checked += 1;
                }
                let a = legal[below(&mut chance, legal.len() as u32) as usize];
                g.apply(a, &mut chance);
            }
        }
        assert!(checked > 200, "only {checked} values checked");
    }
}
